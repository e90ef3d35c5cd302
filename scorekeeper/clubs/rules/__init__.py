"""A club's arithmetic, pure: evenings, season, the evening as it is played."""
