"""What-if experiments: many seeded games per ruleset, compared with paired statistics."""
