"""Text cells of a batch CSV output that a spreadsheet could run as a formula, made inert.

Following OWASP's advice on CSV injection (https://owasp.org/www-community/attacks/CSV_Injection):
a text cell that starts with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return is written
with a single quote ``'`` in front, which spreadsheets read as "this is text" and do not show.
So that the quote can always be taken off again (``--resume`` reads ids back), a cell that
starts with ``'`` gets one more in front too. A lone ``-`` (how the output writes "no cards")
is no formula and is written as is. Numbers are never changed; JSON Lines output needs none of
this and has none.

>>> escape_cell("=HYPERLINK(1)"), escape_cell("'quoted"), escape_cell("-"), escape_cell("AsAh")
("'=HYPERLINK(1)", "''quoted", '-', 'AsAh')
>>> unescape_cell(escape_cell("@SUM(A1)")) == "@SUM(A1)"
True
"""

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
TEXT_MARK = "'"


def escape_cell(text: str) -> str:
    """``text`` as written to a CSV output cell (see the module docstring)."""
    if text.startswith(TEXT_MARK) or (text.startswith(FORMULA_STARTS) and text != "-"):
        return TEXT_MARK + text
    return text


def unescape_cell(cell: str) -> str:
    """The text an output cell was written from: :func:`escape_cell` undone."""
    return cell[1:] if cell.startswith(TEXT_MARK) else cell
