"""`python -m ygoterm` is the `ygoterm` command."""

from .cli import main

raise SystemExit(main())
