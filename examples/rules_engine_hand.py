"""Drive one pot-limit Omaha hi/lo hand with the rules engine and print its history.

Three players; the short stack goes all-in on the flop, so a side pot opens; the main pot is
split high/low and the side pot scooped. Run: python examples/rules_engine_hand.py
"""

from omaha_equity.rules import Hand, Phase, PotLimit

hand = Hand.with_blinds("omaha8", PotLimit(10), [1000, 400, 1000], button=2, small_blind=5, big_blind=10,
                        names=["Ann", "Bob", "Cy"], hole_cards=["8s8c5s6s", "7c7h9sTc", "AhQdQc3h"],
                        board="Ks9d4h2c7d")
legal = hand.legal_actions()
print(f"{hand.names[legal.seat]} to act: call {legal.call_amount}, raise to {legal.min_raise_to}..{legal.max_raise_to}")
hand.bet_or_raise_to(35)    # Cy raises the pot
hand.check_or_call()        # Ann calls
hand.bet_or_raise_to(140)   # Bob raises the pot
hand.check_or_call()
hand.check_or_call()
hand.bet_or_raise_to(260)   # flop: Ann bets
hand.check_or_call()        # Bob calls all-in
hand.bet_or_raise_to(800)   # Cy raises
hand.check_or_call()        # Ann calls
while hand.phase == Phase.BETTING:
    hand.check_or_call()
while hand.phase == Phase.SHOWDOWN:
    hand.show()
print(hand.history())
