"""Three players all in on the flop for different amounts (Omaha hi/lo): who gets what from
the main pot and the side pot on average, exactly. Players are listed from the first seat left
of the button (the order that gives odd chips)."""

from omaha_equity import calculate_allin
from omaha_equity.equity.expected_chips import committed_from_stacks

hands = ["As2sKdQd", "Ah3h9c9d", "5c4c8h8s"]
committed = committed_from_stacks([500, 350, 120])  # the 500 stack can only lose 350
result = calculate_allin(hands, committed, board="Kh7s2d", game="omaha8")
for number, pot in enumerate(result.pots):
    players = ", ".join(str(player + 1) for player in pot.eligible)
    print(f"{'main pot' if number == 0 else f'side pot {number}'}: {pot.amount} chips, players {players}")
for number, player in enumerate(result.players, start=1):
    per_pot = " + ".join(f"{chips:.2f}" for chips in player.pot_chips)
    print(f"player {number} {player.hand}: in {player.committed}, back {per_pot} = {player.expected:.2f}, "
          f"net EV {player.net:+.2f} (exactly {player.net_exact})")
