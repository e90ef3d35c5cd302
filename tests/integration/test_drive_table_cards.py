"""Issue 33: table cards printed from a 127.0.0.1 address carry QR codes no phone can open. The PDF says so on every
card, in red, and where to open the cards page instead (this machine's address on the network); under PUBLIC_URL it
says nothing."""

import io

LADIES = [f"Lady {n}" for n in "ABCD"]
GENTS = [f"Gent {n}" for n in "ABCD"]


def is_red(colour) -> bool:
    return len(colour) == 3 and colour[0] > 0.5 and colour[1] < 0.3 and colour[2] < 0.3


def cards_pdf(client, monkeypatch, lan="192.168.1.20") -> tuple[dict, list[str], list]:
    import pdfplumber

    from scorekeeper.server import proxy

    monkeypatch.setattr(proxy, "lan_address", lambda: lan)
    drive = client.post("/api/drives", json={"format": "progressive", "ladies": LADIES, "gents": GENTS}).json
    assert client.get(drive["edit_page"]).status_code == 302  # the organiser's phone
    r = client.get(f"/d/{drive['id']}/cards.pdf")
    assert r.status_code == 200
    with pdfplumber.open(io.BytesIO(r.data)) as pdf:
        texts = [page.extract_text() for page in pdf.pages]
        red = [c for page in pdf.pages for c in page.chars if is_red(c["non_stroking_color"])]
    return drive, texts, red


def test_table_cards_from_a_loopback_address_say_so_on_every_card(client, monkeypatch):
    drive, texts, red = cards_pdf(client, monkeypatch)
    assert len(texts) == 2
    for text in texts:
        flat = " ".join(text.split())
        assert "The phones cannot open these QR codes." in flat and "localhost" in flat
        assert f"http://192.168.1.20/d/{drive['id']}/cards" in "".join(text.split())  # where to open it instead
    assert red  # in red


def test_table_cards_under_a_public_address_carry_no_warning(tmp_path, monkeypatch):
    from scorekeeper import create_app

    app = create_app({"DATABASE": str(tmp_path / "p.sqlite"), "SECRET_KEY": "p", "PUBLIC_URL": "http://whist.lan:5000"})
    _drive, texts, red = cards_pdf(app.test_client(), monkeypatch)
    assert all("cannot open" not in text for text in texts) and not red
