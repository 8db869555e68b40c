"""The memory a study may take, checked before it allocates: a study that holds something per
hand of a range (the distribution by hand, the parts of ``hits --vs``) would exhaust the memory
of most machines on the widest 6-card ranges (``'100%'`` of Omaha-6: 20,358,520 hands). It is
refused at once instead, with the estimate and what to ask for.

Each study measures what it holds per hand (tracemalloc, on a 6-card range of 678,792 hands)
and passes that figure here.
"""

from __future__ import annotations

from ..errors import InputError

# What a study's per-hand data may take, in bytes. The process itself (the interpreter, numpy,
# numba and the lookup tables) takes about 250 MB and a 6-card range at most 21 bytes a hand
# (420 MB for all 20,358,520 hands): with this, a study stays under 1 GB in all.
STUDY_MEMORY_BUDGET = 600_000_000

# What to ask for instead of a study too big for the budget.
NARROWER_RANGE = "narrow the range (e.g. '15%', or a category filter such as '100%:{set+}')"


def study_memory_estimate(hand_count: int, bytes_per_hand: int) -> int:
    """Bytes a study holding ``bytes_per_hand`` for each of ``hand_count`` hands would take."""
    return hand_count * bytes_per_hand


def _amount(byte_count: int) -> str:
    """``4.3 GB``, ``600 MB``."""
    return f"{byte_count / 1e9:.1f} GB" if byte_count >= 1e9 else f"{byte_count / 1e6:,.0f} MB"


def check_study_memory(study: str, hand_count: int, bytes_per_hand: int, narrower: str) -> None:
    """Refuse ``study`` over ``hand_count`` hands when its estimate is over the budget.

    Raises
    ------
    InputError
        ``the distribution by hand of 6,096,454 hands would need about 4.3 GB of memory (this
        program allows 600 MB): narrow the range ...`` (``narrower`` says how).
    """
    needed = study_memory_estimate(hand_count, bytes_per_hand)
    if needed > STUDY_MEMORY_BUDGET:
        raise InputError(f"{study} of {hand_count:,} hands would need about {_amount(needed)} of memory (this "
                         f"program allows {_amount(STUDY_MEMORY_BUDGET)}): {narrower}")
