"""The output contract: a set of files appears whole or not at all, and sflp touches only its own files.

Like git refusing to clobber untracked files, sflp replaces or removes only what its own manifest
lists, or a staging folder carrying its own marker that no live run holds.  Every set sflp writes
(a chart set, an atlas, a comparison, a policy-score or ``.efg`` set) goes through here:

==================  ==================================================================================
:mod:`.stage`       :class:`StagedFolder`: the set written beside its target, locked, swapped in at
                    the end with one atomic exchange; the contract step by step in its docstring
:mod:`.target`      the target checked before any work (:func:`check_target`): names, mounts,
                    read-only or immutable folders, a folder of files sflp did not write, and the
                    one rule for every output folder: a set replaces only a set of its own kind
:mod:`.lock`        ``.<name>.lock``: one run at a time into one target
:mod:`.marker`      the marker that proves a staging folder is sflp's, and the removal of leftovers
:mod:`.manifest`    ``manifest.json``: every file with its size and SHA-256, and the reader's check
                    (:func:`check_manifest`)
:mod:`.jobs`        the worker processes a set's slow files are written in (:class:`Jobs`)
:mod:`.clean`       what leaves sflp is clean: user text (:func:`clean_text`) and strict JSON
                    (:func:`json_text`)
==================  ==================================================================================

The single files sflp writes go through :mod:`sflp.atomic` (a temporary name in the same folder,
then a rename), below this package.  Nothing here knows what a chart is: only the names of the
kinds of set sflp writes, to say which one a folder holds (:data:`sflp.output.target.KINDS`).
"""

import importlib

# Names are imported from their module on first use (PEP 562): importing the package loads nothing heavy.
_LAZY = {
    **dict.fromkeys(("StagedFolder", "TEMP_FOLDER", "signals_deferred"), "sflp.output.stage"),
    **dict.fromkeys(("check_target", "foreign_entries"), "sflp.output.target"),
    **dict.fromkeys(("MARKER", "leftovers", "remove_marked"), "sflp.output.marker"),
    **dict.fromkeys(
        ("MANIFEST", "check_manifest", "file_sha256", "read_manifest", "write_manifest"), "sflp.output.manifest"
    ),
    **dict.fromkeys(("Jobs", "default_workers", "usable_cpus"), "sflp.output.jobs"),
    **dict.fromkeys(("clean_text", "json_text"), "sflp.output.clean"),
}


def __getattr__(name: str):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # the next lookup is a plain attribute
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


__all__ = sorted(_LAZY)
