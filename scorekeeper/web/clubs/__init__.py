"""web/clubs"""
