"""Whist drives: the rules (pure), service, pages, API, forms and paper."""
