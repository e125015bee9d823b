"""`python -m battlefield` runs the command line."""

from battlefield.cli.main import main

raise SystemExit(main())
