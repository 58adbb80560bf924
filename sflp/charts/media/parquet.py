"""The ``parquet`` form of the ranges: ``ranges.parquet`` (:class:`RangesParquet`), written by the
``csv`` format (:mod:`sflp.charts.media.csv`) when ``ranges="parquet"``; pyarrow, an extra, is
imported only when it is asked for (:func:`_pyarrow`, which the reader uses too)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np

from sflp.charts.media.writer import Block, Head, Sweep, Writer
from sflp.core.cards import CLASS_NAMES, N_CLASSES, PLAYERS
from sflp.errors import ConfigError, OutputError


class RangesParquet(Writer):
    """``ranges.parquet``: the columns of ``ranges.csv`` in Parquet (zstd), a row group per block.

    pyarrow is imported here only (the ``parquet`` extra); ``player`` and ``hand`` are
    dictionary columns, the floats are stored exactly."""

    def open(self, stage: Path, head: Head, submit: Callable) -> None:
        pa, pq = _pyarrow()
        self.path = stage / "ranges.parquet"
        self.pa = pa
        self.players = pa.array(list(PLAYERS))
        self.hands = pa.array(list(CLASS_NAMES))
        schema = pa.schema([("stack", pa.float64()), ("player", pa.dictionary(pa.int8(), pa.string())),
                            ("hand", pa.dictionary(pa.int16(), pa.string())), ("frequency", pa.float64()),
                            ("ev_margin", pa.float64())])
        try:
            self.out = pq.ParquetWriter(str(self.path), schema, compression="zstd")
        except OSError as exc:
            raise OutputError(f"cannot write {self.path}: {exc}") from None

    def add(self, block: Block) -> None:
        pa = self.pa
        n = len(block.stacks)
        player = np.tile(np.repeat(np.arange(2, dtype=np.int8), N_CLASSES), n)
        hand = np.tile(np.arange(N_CLASSES, dtype=np.int16), 2 * n)
        table = pa.table({
            "stack": np.repeat(np.asarray(block.stacks, dtype=np.float64), 2 * N_CLASSES),
            "player": pa.DictionaryArray.from_arrays(player, self.players),
            "hand": pa.DictionaryArray.from_arrays(hand, self.hands),
            "frequency": np.ascontiguousarray(block.rows[:, 0:2, :]).ravel(),
            "ev_margin": np.ascontiguousarray(block.rows[:, 2:4, :]).ravel(),
        })
        try:
            self.out.write_table(table)
        except OSError as exc:
            raise OutputError(f"cannot write {self.path}: {exc}") from None

    def finish(self, sweep: Sweep, submit: Callable) -> dict[str, str]:
        try:
            self.out.close()
        except OSError as exc:
            raise OutputError(f"cannot write {self.path}: {exc}") from None
        return {}

    def discard(self) -> None:
        out = getattr(self, "out", None)
        if out is not None:
            try:
                out.close()
            except Exception:  # noqa: BLE001 -- closing after an error; the staging folder goes anyway
                pass


def _pyarrow():
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError:
        raise ConfigError("ranges='parquet' needs pyarrow: pip install 'sflp[parquet]' "
                          "(or use ranges='segments', which needs nothing more)") from None
    return pa, pq
