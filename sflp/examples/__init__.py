"""Runnable examples installed with sflp, so the docs' commands work from any folder.

``python -m sflp.examples.cfr_plus FOLDER`` is docs/OPENSPIEL.md's stand-in for a solver author's
trainer.  An example imports what it needs (OpenSpiel) when it runs, so ``import sflp`` without
the ``openspiel`` extra is unaffected; it uses no module of sflp above ``openspiel`` in the import
order.
"""
