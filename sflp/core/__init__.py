"""The game itself, with numpy only: cards and hand classes, the hand evaluator, ranges, the exact
equity table, the payoffs and the push/fold game.

See docs/ARCHITECTURE.md for the floors and the one-way imports."""
