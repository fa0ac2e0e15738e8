import os
import signal
import sys

sys.path.insert(0, os.path.dirname(__file__))

# The Ctrl-C tests send SIGINT to this process: a shell that starts the suite in the background
# ignores SIGINT for it (Python then installs no KeyboardInterrupt handler), so put it back.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)
