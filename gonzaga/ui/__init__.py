"""Interface pieces shared by the screens: widgets, panels, charts, motion, the window on the desktop. Their words live on
their own floor, ``gonzaga/words``."""
