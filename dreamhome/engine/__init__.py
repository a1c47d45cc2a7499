"""The rules core: one module per rule area, its plain-Python reading and its CP-SAT builder side by side.

- `rooms`         PLACE-B, PLACE-C, SCORE-ROOMS and the annex bonus: the one room scanner
                  (`room_runs`), room value, "beside"; `add_max_size`, `add_room_points`, `add_annex_points`
- `functionality` SCORE-FUNC-*: clauses read as floor masks; `add_bonuses` for any model
- `furnishings`   SCORE-FURN, FURN-ONE at the end: token points, `resolve_tokens`; `add_tokens`
- `roof`          SCORE-ROOF and END-ROOFER: closed form, enumeration, best picks from the discard
- `helpers`       HELP-*: what the helpers a house holds add to scoring; HELP-DESIGNER's open rooms
- `placement`     PLACE-A/B/C/CLOSED/MERGE/EMPTY/SCAFFOLD: where a room card may go now
- `endgame`       END-*: the end-game roles by effect, the helper uses a house holds, each action
                  replayed with its rules, and the search for an order of actions
- `deck`          COMP-5: the decks, and what is left of them beside a house
- `cpsat`         the CP-SAT model base (card classes, stages) and the one solver set-up

Legality (`dreamhome.legality`), scoring (`dreamhome.scoring`: fast, explained and CP-SAT),
the game driver, the bots and the solver's queries all read the rules through these modules.
"""
