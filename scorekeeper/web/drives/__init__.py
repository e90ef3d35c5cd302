"""The whist drive's pages: the organiser's, the tables', the hall's screen, and its paper."""
