"""A club: members, card evenings, the season; its rules (pure), service, pages, forms and paper."""
