"""The whist drive's pages: the organiser's (new drive, the drive page, corrections with their effect shown before they
are saved, people, prizes, table cards), the tables' own pages from their cards' QR codes, the hall's screen, and the
paper. Thin: drives/service.py does the work and present.py turns the replayed drive into words and numbers.

A table's page is /d/<id>/t/<table>/<token>, the token an HMAC of the table under the drive's edit key
(drives.service.table_token): it lets that table enter its own results and nothing else. Its form needs no CSRF
token (the address is the credential, not a cookie), and sending it again is harmless: the service replaces a
table's result for a hand with the one sent, so a resend of the same taps stores the same result.

By job: common, organiser, table, screen, paper."""

from scorekeeper.drives.pages import organiser, paper, screen, table  # noqa: F401  (their routes on bp)
from scorekeeper.drives.pages.common import bp

__all__ = ["bp"]
