"""The bridge to OpenSpiel and Gambit: sflp's game as a Gambit ``.efg`` file, loaded in OpenSpiel,
and OpenSpiel policies scored exactly.

>>> import sflp
>>> text = sflp.to_efg(sflp.GameConfig(stack=10))       # the .efg text (write it with sflp.write_efg)
>>> text.count("\\np "), text.count("\\nt ")             # SB and BB decision nodes; terminals
(57122, 85683)

* :mod:`.efg` -- the export (:func:`to_efg`, :func:`write_efg`): needs nothing but sflp;
* :mod:`.bridge` -- :func:`load_game`, :func:`to_strategy`, :func:`from_strategy`,
  :func:`verify`: need OpenSpiel (``pip install 'open-spiel>=1.5'``, or ``pip install -e
  '.[openspiel]'`` in a checkout of sflp) except for policies given as plain mappings; the game
  travels with the policy (:data:`GAME_KEY`, :func:`policy_game`) and the file
  (:func:`efg_config`), and :func:`check_game` refuses a pyspiel game that is not sflp's;
* :mod:`.stacks` -- a solver's policies at several stacks scored in one call
  (:func:`policy_folder`, :func:`verify_stacks`: ``sflp verify --policy-dir``);
* :mod:`.atlas` -- OpenSpiel's solvers run on the exported game beside sflp's own approximate
  solvers, scored exactly (``sflp approx-bench --openspiel``).
* :mod:`.quote` -- a bad input (a policy entry, a state, a path) quoted in one short line in
  the errors of the two above, however large it is.

``pyspiel`` is imported on first use, never with this package.
"""

from sflp.openspiel.bridge import (
    GAME_KEY,
    INSTALL_HINT,
    Strategies,
    check_game,
    combo_info_state,
    efg_config,
    from_strategy,
    game_entry,
    load_game,
    policy_game,
    policy_rows,
    pyspiel,
    read_policy,
    to_strategy,
    verify,
)
from sflp.openspiel.efg import ACTION_IDS, ACTIONS, EfgSummary, efg_text, info_state, write_efg
from sflp.openspiel.stacks import policy_folder, verify_stacks

to_efg = efg_text
"""``sflp.to_efg(config)``: the game as ``.efg`` text (:func:`sflp.openspiel.efg.efg_text`)."""

__all__ = ["ACTIONS", "ACTION_IDS", "GAME_KEY", "INSTALL_HINT", "EfgSummary", "Strategies", "check_game",
           "combo_info_state",
           "efg_config", "efg_text", "from_strategy", "game_entry", "info_state", "load_game", "policy_game",
           "policy_folder", "policy_rows", "pyspiel", "read_policy", "to_efg", "to_strategy", "verify", "verify_stacks",
           "write_efg"]
