"""Italian interface strings (wording from the printed Italian rules)."""
IT: dict[str, str] = {}
