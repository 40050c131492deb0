"""``python -m bot``: the command line (see ``bot.cli``); its return value is the exit code."""

import sys

from bot.cli import main

sys.exit(main())
