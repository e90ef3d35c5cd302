"""A game at a table: its service, pages, forms, API, print sheets and PDF."""
