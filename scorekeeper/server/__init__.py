"""The plumbing that is no page: serving, limits, security headers, proxy, logs, health, the PDF renderer, the live door."""
