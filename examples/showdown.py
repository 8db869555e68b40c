"""Read a hi/lo showdown: best hands with the cards used, winners, and a quartered pot."""

from omaha_equity import format_cards, read_showdown

showdown = read_showdown(["AdKd3s2s", "Ah2c9c9d"], "Jd4d3cQd5h", game="omaha8")
for number, (reading, share) in enumerate(zip(showdown.readings, showdown.shares), start=1):
    low = reading.low.description if reading.low else "no low"
    print(f"player {number}: {reading.high.description} ({format_cards(reading.high.cards, separator=' ')}), "
          f"{low}; share {share}")
