"""Build hook: copy the equity table from the checkout's ``data/`` (its source of truth) into the
package as ``sflp/data/``, so wheels and non-editable installs carry it as package data; and the
push/fold LP compiled once for every blind structure (``push_fold_lp.npz``, sflp.solving.lp_template),
so that a new process solves without importing cvxpy.

Everything else about the build lives in pyproject.toml.
"""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

TABLE_FILES = ("equity_table.bin", "equity_table.sha256", "push_fold_lp.npz")


class build_py_with_table(build_py):
    """``build_py`` that also places ``data/equity_table.*`` and the LP template into ``<build>/sflp/data/``."""

    def run(self):
        super().run()
        if getattr(self, "editable_mode", False):
            return  # an editable install reads the checkout's data/ directly
        source = Path(__file__).resolve().parent / "data"
        target = Path(self.build_lib) / "sflp" / "data"
        target.mkdir(parents=True, exist_ok=True)
        for name in TABLE_FILES:
            if not (source / name).is_file():
                raise SystemExit(f"sflp build: {source / name} is missing (run `sflp equity build` first)")
            shutil.copyfile(source / name, target / name)

    def get_outputs(self, include_bytecode=True):
        outputs = list(super().get_outputs(include_bytecode))
        if not getattr(self, "editable_mode", False):
            outputs += [str(Path(self.build_lib) / "sflp" / "data" / n) for n in TABLE_FILES]
        return outputs


setup(cmdclass={"build_py": build_py_with_table})
