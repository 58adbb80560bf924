"""The atomic writer of the reports; it lives in :mod:`sflp.atomic` (re-exported here)."""

from sflp.atomic import TEMP_SUFFIX, atomic_output, check_out_dir, write_bytes, write_text, write_with

__all__ = ["TEMP_SUFFIX", "atomic_output", "check_out_dir", "write_bytes", "write_text", "write_with"]
