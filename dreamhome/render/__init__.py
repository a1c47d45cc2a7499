"""What people look at, apart from the rules: the house as a terminal grid (`house_text`) and as
an SVG picture (`house_svg`), a game record as a page that steps through it (`replay_page`), a
score line in the reader's language (`score_text`) and a ruleset's cards as a table
(`rules_report`). Nothing here decides anything: every module reads values the core computed."""
