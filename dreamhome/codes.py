"""The codes of a house's cells (docs/formats.md): what a space holds, as one small int.

In a module of their own so the rules (`ruleset`) and the index tables derived from them
(`tables`) both read them without importing each other.
"""

EMPTY = 0
SCAFFOLD = 1
FACE_DOWN = 2
ROOM0 = 3  # the first room type's code; room type k has code ROOM0 + k
