"""What the tests share: independent references (plain readings of the rules on the JSON form
and by exhaustive enumeration), hypothesis strategies, paths and compiled rules."""
