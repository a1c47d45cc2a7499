"""The rules language: its grammar, the parser (text to syntax tree) and the compiler (syntax
tree to one immutable `Ruleset`, with every error of a file at once).

Import from the modules (`dreamhome.dsl.compiler`, `.parser`); this package imports nothing
itself, so loading the package does not load Lark.
"""
