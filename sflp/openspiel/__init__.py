"""The bridge to OpenSpiel and Gambit: sflp's game as a Gambit ``.efg`` file, loaded in OpenSpiel,
and OpenSpiel policies scored exactly.

>>> import sflp
>>> text = sflp.to_efg(sflp.GameConfig(stack=10))       # the .efg text (write it with sflp.write_efg)
>>> text.count("\\np "), text.count("\\nt ")             # SB and BB decision nodes; terminals
(57122, 85683)

* :mod:`.efg` -- the export (:func:`to_efg`, :func:`write_efg`) and OpenSpiel's names of its
  information states (:func:`info_state`, :func:`combo_info_state`): needs nothing but sflp;
* :mod:`.combo` -- the game at combo level as files: its ``.efg`` and its sequence form as an
  ``.npz`` (``sflp export efg --combos``, ``sflp export npz``);
* :mod:`.game` -- :func:`load_game` and :func:`check_game`, which refuses a pyspiel game that is
  not sflp's: need OpenSpiel (``pip install 'open-spiel>=1.5'``, or ``pip install -e
  '.[openspiel]'`` in a checkout of sflp); and the game that travels with the policy
  (:data:`GAME_KEY`, :func:`policy_game`) and the file (:func:`efg_config`);
* :mod:`.policy` -- :func:`to_strategy`, :func:`from_strategy`, :func:`verify`: need OpenSpiel
  except for policies given as plain mappings;
* :mod:`.policy_file` -- :func:`read_policy`: a policy's JSON file, or OpenSpiel's
  ``serialize()`` text;
* :mod:`.stacks` -- a solver's policies at several stacks scored in one call
  (:func:`policy_folder`, :func:`verify_stacks`: ``sflp verify --policy-dir``);
* :mod:`.atlas` -- OpenSpiel's solvers run on the exported game beside sflp's own approximate
  solvers, scored exactly (``sflp approx-bench --openspiel``).

``pyspiel`` is imported on first use, never with this package.
"""

from sflp.openspiel.best_response import BestResponse, best_response, write_best_response
from sflp.openspiel.efg import (
    ACTION_IDS,
    ACTIONS,
    EfgSummary,
    combo_info_state,
    efg_text,
    game_tag,
    info_state,
    split_state,
    tag_game,
    write_efg,
)
from sflp.openspiel.game import (
    GAME_KEY,
    INSTALL_HINT,
    check_game,
    efg_config,
    game_entry,
    load_game,
    policy_game,
    pyspiel,
)
from sflp.openspiel.policy import (
    GameNotNamed,
    PolicyRenormalised,
    Strategies,
    from_strategy,
    named_game,
    policy_rows,
    to_strategy,
    verify,
)
from sflp.openspiel.policy_file import read_policy
from sflp.openspiel.stacks import policy_folder, verify_stacks

to_efg = efg_text
"""``sflp.to_efg(config)``: the game as ``.efg`` text (:func:`sflp.openspiel.efg.efg_text`)."""

__all__ = [
    "BestResponse", "best_response", "write_best_response",
    "ACTIONS", "ACTION_IDS", "GAME_KEY", "INSTALL_HINT", "EfgSummary", "GameNotNamed",
    "PolicyRenormalised", "Strategies",
    "check_game", "combo_info_state", "efg_config", "efg_text", "from_strategy", "game_entry", "game_tag",
    "info_state", "named_game", "load_game", "policy_game", "policy_folder", "policy_rows", "pyspiel",
    "read_policy", "split_state", "tag_game", "to_efg", "to_strategy", "verify", "verify_stacks",
    "write_efg",
]
