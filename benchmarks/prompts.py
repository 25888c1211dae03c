"""Anniversary prompts: how often a table of five waits on a special-card or swap decision.

Plays seeded Anniversary games with five human seats, all with the same prompt
preference, and asks the table service's own rule (``bot.tables.specials.asks``)
at every special-card and swap pause. A *pause* is a pause that rule asks a
human about (the game waits for them); the rest are declined at once, as the
bot does. Picks and low-card rows are made by the medium AI. Asked players
answer by ``--policy``:

* ``ai`` — like the medium AI (it weighs the bullheads saved against keeping
  the card), a thoughtful player;
* ``eager`` — a special card at random with chance 0.6, else decline, a
  careless player (as tests/e2e/test_anniversary.py clicks).

A decline and swap chosen with one click (the prompt offers it) is counted as
two pauses here, as the engine pauses twice: "always" is slightly overstated.

For each preference it prints the mean pauses per turn (turn = everyone's card
of one trick), the most in one turn, and the share of special-card prompts on
a card that took nothing without a special card.
Target: ≤ 0.5 pauses per turn at the default preference.

Run: ``python benchmarks/prompts.py [--games 60] [--policy ai|eager|both] [--seed 0]``
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bot.tables.specials import asks  # noqa: E402
from bot.tables.table import DEFAULT_PROMPTS, PROMPT_PREFERENCES  # noqa: E402
from engine import AnniversaryGame, GameConfig, Phase  # noqa: E402
from engine.ai import choose_action  # noqa: E402

PLAYERS = 5
EAGER = 0.6


def play_game(seed: int, preference: str, policy: str) -> tuple[int, list[int], int, int]:
    """One game: (turns, pauses of each turn, special prompts, of which on a card that took nothing)."""
    game = AnniversaryGame.new(GameConfig(PLAYERS, "anniversary"), seed=seed)
    rng = random.Random(seed)
    per_turn: list[int] = []
    prompts = harmless = 0
    while not game.is_over:
        if game.phase is Phase.PICK:
            per_turn.append(0)
            for p in game.waiting_for:
                game.apply(choose_action(game, p, "medium", rng))
            continue
        player = game.waiting_for[0]
        legal = game.legal_actions(player)
        if game.phase not in (Phase.SPECIAL, Phase.SWAP):
            game.apply(choose_action(game, player, "medium", rng))
            continue
        if not asks(preference, game):
            game.apply(legal[-1])  # the decline comes last
            continue
        per_turn[-1] += 1
        if game.phase is Phase.SPECIAL:
            prompts += 1
            harmless += not game.preview_placement(game.special_card).takes
        if policy == "ai":
            game.apply(choose_action(game, player, "medium", rng))
        elif rng.random() < EAGER and len(legal) > 1:
            game.apply(rng.choice(legal[:-1]))
        else:
            game.apply(legal[-1])
    return len(per_turn), per_turn, prompts, harmless


def measure(games: int, seed: int, preference: str, policy: str) -> None:
    started = time.perf_counter()
    turns = pauses = most = prompts = harmless = 0
    for i in range(games):
        t, per_turn, p, h = play_game(seed + i, preference, policy)
        turns += t
        pauses += sum(per_turn)
        most = max([most] + per_turn)
        prompts += p
        harmless += h
    default = " (default)" if preference == DEFAULT_PROMPTS else ""
    share = f"{100 * harmless / prompts:.0f} %" if prompts else "—"
    print(
        f"{policy:>5}  {preference + default:<17} {pauses / turns:6.2f} pauses/turn   "
        f"max {most}/turn   special prompts on a card taking nothing: {share:>5}   "
        f"({games} games, {turns} turns, {time.perf_counter() - started:.1f} s)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--policy", choices=("ai", "eager", "both"), default="both")
    args = parser.parse_args()
    print(f"Anniversary, {PLAYERS} human seats; a pause = the game waits on a special-card or swap decision")
    for policy in ("ai", "eager") if args.policy == "both" else (args.policy,):
        for preference in PROMPT_PREFERENCES:
            measure(args.games, args.seed, preference, policy)


if __name__ == "__main__":
    main()
