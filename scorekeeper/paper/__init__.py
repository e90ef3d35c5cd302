"""The paper every PDF is drawn on: ReportLab layout of a document's blocks."""
