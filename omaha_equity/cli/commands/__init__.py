"""The commands of ``omaha-equity``, one module per family: :mod:`.equity` (calc, show, range,
rank), :mod:`.chips` (allin), :mod:`.studies` (distribution, hits), :mod:`.rules` (pot-limit),
:mod:`.hand_histories` (play, convert, ev) and :mod:`.batch`. ``cli.app`` gathers them into the
group; the shell lives there, as it runs the group itself.

Each command parses its options (click), calls the library and prints what a view renders; the
library and views are imported inside the command, so that loading the command line stays cheap.
"""
