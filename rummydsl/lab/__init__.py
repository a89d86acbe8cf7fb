"""The lab: compare variants, sweep house-rule values, and report what they do (issue 12)."""
