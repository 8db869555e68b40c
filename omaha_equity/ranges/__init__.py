"""Hand ranges in the generic range syntax of ProPokerTools, for 4-, 5- and 6-card hands.

::

    from omaha_equity.ranges import parse_range
    hand_range = parse_range("AA:$ds, KK@0.5")    # HandRange: .hands (n, 4) int8, .weights (n,)
    hand_range.size                               # 864 + 6961 - 6 (AxAyKxKy in both) = 7819
    parse_range("RRON", "omaha5").size            # 1,276,704 five-card hands
    parse_range("AA", excluded="AsAhAd", excluded_reason="dead cards AsAhAd")
    # InputError: no hand in range 'AA' is possible with dead cards AsAhAd

A range is a set of hands, each with a weight. One expression means the same hands in every
game; only the hole-card count changes (``AA`` is "at least two aces" in 4, 5 and 6 cards).

Grammar (EBNF; whitespace is ignored everywhere, letters are case-insensitive; digits and
letters are ASCII only, so ``²`` or a fullwidth ``１`` is an unknown character)::

    range         = union ;
    union         = selection , { "," , selection } ;                 (* or *)
    selection     = weighted , { ( ":" | "!" ) , weighted } ;         (* and, and not *)
    weighted      = primary , [ "@" , number ] ;
    primary       = "(" , union , ")" | percent | macro | filter | hand ;
    percent       = number , "%" , [ "-" , number , "%" ] , [ "6h" ] ;
    macro         = "$" , ( "ds" | "ss" | "r" | "np" ) ;
    filter        = "{" , category , { "," , category } , "}" ;       (* on the board: docs/categories.md *)
    category      = name , [ "+" ] ;                                  (* "+": this or better *)
    hand          = pattern , [ "+" | "-" | "-" , pattern ] ;          (* rank spans *)
    pattern       = card , { card } ;
    card          = rank part , [ suit part ] | suit part ;
    rank part     = rank | "*" | rank variable | list ;
    suit part     = suit | suit variable ;
    list          = "[" , item , { [ "," ] , item } , "]" ;
    item          = rank , [ suit ] , [ "-" , rank , [ suit ] | "+" | "-" ] , [ suit ] | suit ;
    rank          = "A" | "K" | "Q" | "J" | "T" | "10" | "9" | "8" | ... | "2" ;
    suit          = "s" | "h" | "d" | "c" | "♠" | "♥" | "♦" | "♣" ;
    suit variable = "w" | "x" | "y" | "z" ;
    rank variable = any other ASCII letter (conventionally "R", "O", "N", "P") ;
    number        = ( digit , { digit } , [ "." , { digit } ] | "." , digit , { digit } ) , [ exponent ] ;
    exponent      = ( "e" | "E" ) , [ "+" | "-" ] , digit , { digit } ;

Constructs (counts are 4-card Omaha hands, out of 270,725):

- Specific hand: ``AsKhJd2c`` (1 hand). Cards may be written as in the rest of the package:
  ``as kh jd 2c``, ``As Kh Jd 2c``, ``10s`` for ``Ts``, ``A♠``; but not ``As,Kh,Jd,2c``, since
  ``,`` means "or" here (that is every hand holding at least one of the four cards). In 5- and
  6-card games a 4-card hand is a partial hand.
- Partial hand: ``AsAh``: every hand holding both cards (1,225). ``*``: any hand (270,725).
- At least: a pattern lists cards the hand holds *at least*: ``AA`` at least two aces (6,961),
  ``AAK`` at least two aces and a king. Matching: some one-to-one assignment of the pattern's
  cards to distinct hand cards satisfies every card.
- Wildcard ``*``: a card of any rank; ``****`` = ``*``. ``*s`` = ``s``.
- Suits ``s h d c``: a lone suit is a card of that suit: ``sshh`` two spades and two hearts
  (6,084).
- Suit variables ``w x y z``: the same letter is the same suit, different letters different
  suits, and never a suit written explicitly in the same pattern: ``xxyy`` double suited (36,504),
  ``wxy`` at least three suits (186,745), ``AxAyxy`` double-suited aces (864), ``ssxx`` two
  spades and two of another suit.
- Rank variables (every other letter): the same letter the same rank, different letters
  different ranks, never a rank written explicitly in the same pattern (outside brackets):
  ``RRON`` one pair plus two other ranks (82,368), ``RxRyOxOy`` double-suited two pair (468),
  ``AARR`` aces and another pair.
- Lists in brackets: a card whose rank (or card) is in the list: ``[A-T]`` ace down to ten
  (aces are high in spans), ``[A,2,3,4,5]`` (commas optional: ``[A2345]``), ``[T+]`` ten up to
  ace, ``[7-]`` seven down to deuce, ``[s,h]`` a spade or a heart, ``[As,Kh]`` one of two cards,
  ``[As-Ts]`` a spade from ace to ten. A suit or suit variable may follow: ``[A-T]s``,
  ``[K,Q]x``. Several lists may appear in one hand: ``[A-T][A-T]xx``. Ranks and suits inside
  brackets do not restrict the variables.
- Rank spans on whole patterns: ``KK-TT`` = ``KK,QQ,JJ,TT``; ``AK-T9`` = ``AK,KQ,QJ,JT,T9``
  (every written rank moves by the same amount; variables, lists and suits must be the same on
  both ends: ``AxKx-TxJy`` is an error, ``KxKy-TxTy`` is fine); a trailing ``+`` moves the
  written ranks up to the ace, a trailing ``-`` down to the deuce: ``TT+`` = ``TT,JJ,QQ,KK,AA``,
  ``T9+`` = ``T9,JT,QJ,KQ,AK``, ``K+`` = ``K,A``, ``44-`` = ``44,33,22``. ``A-T`` (one-card
  patterns) equals ``[A-T]``.
- Combinators, loosest last: parentheses, then ``:`` (and) and ``!`` (and not) from left to
  right, then ``,`` (or): ``AA:xxyy, JJ!JJJ, KK`` = double-suited aces, or exactly two jacks,
  or at least two kings; ``AA!AAA`` exactly two aces (6,768); ``KK:xxyy`` (864);
  ``(AA,KK):$ds``. ``!`` always has a left side: "no two aces" is ``*!AA`` (263,764).
- Weights: ``@N`` after any primary (a pattern, span, macro, percent or parenthesised range),
  ``N`` a positive number (``@10``, ``@0.5``, ``@1e3``): ``AA@10, KK@5``. Weights are relative
  sampling weights. A hand's weight: ``X@N`` multiplies the weights inside ``X`` by ``N`` (an
  unweighted hand gets ``N``; ``(AA@2, KK)@3``: aces 6, kings 3); in ``X, Y`` a hand in both
  sides takes the larger weight, an unweighted side counting 1 (``AA@10, KK@5``: ``AAKK``
  hands weigh 10; ``AA@0.5, AAK``: hands with two aces and a king weigh 1), and stays
  unweighted when both sides are; in ``X : Y`` the larger of the weighted sides, an unweighted
  side being only a filter (``AA@0.5:$ds`` weighs 0.5); in ``X ! Y`` the weight of ``X``.
  Hands never weighted weigh 1. ``@`` binds tighter than ``:`` and ``,``: ``AA:$ds@2`` weighs
  the ``$ds`` part; write ``(AA:$ds)@2`` to weight the intersection. Weights are multiplied
  exactly on their decimals (``(AA@0.1)@3`` weighs 0.3), and a hand's weight, the product of
  the weights around it, must lie between ``1e-20`` and ``1e20`` (an error otherwise), so
  totals stay finite.
- Macros, whole ranges combined with ``:``, ``!`` or ``,`` (``AA:$ds``; ``AA$ds`` is an
  error), from the suit counts (cards per suit) and rank counts of the hand:

  ========  =====================================================  =======  =========  ===========
  macro     meaning                                                4 cards  5 cards    6 cards
  ========  =====================================================  =======  =========  ===========
  ``$ds``   double suited: exactly two suits hold exactly two       36,504   949,104    6,169,176
            cards each, no suit holds more (4: 2-2, 5: 2-2-1,
            6: 2-2-1-1; 6-card 2-2-2 is ``xxyyzz``)
  ``$ss``   single suited: one suit holds exactly two cards, no    158,184   685,464    none
            other suit two or more (4: 2-1-1, 5: 2-1-1-1)
  ``$r``    rainbow: no two cards share a suit (4: 1-1-1-1)         28,561   none       none
  ``$np``   no pair: no two cards share a rank                     183,040   1,317,888  7,028,736
  ========  =====================================================  =======  =========  ===========

  Four suits cannot hold five or six cards without a repeat, and six cards cannot be single
  suited in this sense, so those ranges are empty (an error, like any empty range).
- Percent ranges from the package's starting-hand rankings (:mod:`omaha_equity.rankings`):
  ``15%`` the top 15 percent, ``5%-10%`` between the top 5 and top 10 percent, ``15%6h`` and
  ``5%-10%6h`` from the 6-handed ranking. Bounds: ``0 < N <= 100`` for ``N%``,
  ``0 <= L < H <= 100`` for ``L%-H%``; the numbers may have an exponent (``1e1%`` is ``10%``).
  A game without a ranking is an error.

- Category filters: ``{set+}``, ``{two-pair+}``, ``{nfd}``, ``{wrap13+, nfd}`` (any of the terms),
  ``{clean-sd8+}`` (at least 8 clean straight outs),
  the hands that hold a category on the board (``parse_range(..., board=...)``; names and rules
  in docs/categories.md): ``15%:{set+}``, ``AA:{nfd}``, ``*!{nothing}``. Without a board of 3 to
  5 cards a filter is an error.

Hands are expanded by compiled kernels that walk every hand of the deck (less the excluded
cards, and only around the cards a range requires, so ``AsAh`` in 6-card Omaha walks C(50, 4)
hands, not C(52, 6)), see :mod:`omaha_equity.ranges._kernels`. Long inputs stay linear in
their length (:mod:`omaha_equity.ranges.hand_lists`): a list of written hands (``AsKsQhJh@0.5,
...``, thousands of them) is one set, repeated parts of ``,`` and ``:`` count once, and a chain
``A ! B ! C ...`` is ``A ! (B, C, ...)``.

Errors are :class:`omaha_equity.errors.InputError` with one line that names the 0-based
position: ``unexpected ')' at position 7 in 'AA,(KK))': it closes no '('``, ``unknown character
'&' ...``, ``unclosed '[' at position 0 in '[A-T': expected ']'``, ``bad weight '0' at position
3 in 'AA@0': expected a positive number ...``, ``span 'TT-KK' at position 0 in 'TT-KK' runs the
wrong way: expected the higher end first, as in 'KK-TT'``, ``pattern 'AAKKQ' at position 0 in
'AAKKQ' has 5 cards: expected at most the 4 hole cards of omaha``; and for a range with no
hand left: ``no hand in range 'AA' is possible with dead cards AsAhAd``. A long expression is
quoted by its first 60 characters (or 60 around the position) and its length.
"""

from __future__ import annotations

from .hand_range import HandRange, is_specific_hand, parse_range

__all__ = ["HandRange", "is_specific_hand", "parse_range"]
