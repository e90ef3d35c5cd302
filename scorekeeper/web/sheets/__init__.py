"""web/sheets"""
