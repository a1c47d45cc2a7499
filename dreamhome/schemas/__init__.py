"""JSON Schemas of the files dreamhome reads and writes (docs/formats.md)."""
