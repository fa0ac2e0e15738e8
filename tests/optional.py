"""Optional parts the tests use when they are there (the test extra installs them)."""

import pytest


def png_export_available() -> bool:
    """CairoSVG comes with the test extra (the sanitizer build's venv leaves it out); without the
    cairo C library its import raises OSError, not ImportError."""
    try:
        import cairosvg  # noqa: F401
    except (ImportError, OSError):
        return False
    return True


def require_png() -> None:
    """Skip the calling test when PNG export cannot work here."""
    if not png_export_available():
        pytest.skip("PNG export needs CairoSVG and the cairo library")
