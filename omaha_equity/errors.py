"""The one exception type for bad input, so callers (and the CLI) catch a single class."""


class InputError(ValueError):
    """Raised for any input the library cannot accept: an unknown card, a duplicate card,
    a wrong hole-card count, an unknown game, an impossible option value, ...

    The message quotes the offending token and says what was expected, e.g.
    ``duplicate card Ah in player 2 and board``. The CLI turns it into a one-line usage
    error (exit code 2); Python callers may catch it as ``ValueError``.
    """
