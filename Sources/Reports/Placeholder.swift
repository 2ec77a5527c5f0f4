// Placeholder; the Reports module replaces it.
