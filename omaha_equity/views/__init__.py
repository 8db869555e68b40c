"""Every renderer: results as tables (tabulate), CSV and JSON, one convention."""
