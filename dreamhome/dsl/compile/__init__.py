"""The compiler's steps, one module each, in the order a compile runs them.

`files` (where rules files live, reading one safely) → `includes` (parse, follow includes,
bound their nesting) → `merging` (later declarations override earlier ones, field by field)
with `checks` (the static checks of one declaration) → `builders` (one typed record per
declaration, `effects` checking each effect call) → `playable` (can the game be played) →
`variants` (the variants a ruleset offers and applies). `diagnostics` collects what every
step finds. The pipeline that runs them is `dreamhome.dsl.compiler`, the public entry.
"""
