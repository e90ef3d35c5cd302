"""web/games"""
