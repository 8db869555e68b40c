"""Heads-up equity, exact, from Python: aces double-suited against a rundown, preflop and on a flop."""

from omaha_equity import calculate_equity

for board in ("", "Qd7h2s"):
    result = calculate_equity(["AsAhKsKh", "JdTd9c8c"], board=board)
    print(f"board {board or '(none)'}: {result.method}, {result.sample_count:,} boards")
    for player in result.players:
        print(f"  {player.hand}: {player.equity:.2%} (exactly {player.equity_fraction})")
