"""Interface pieces shared by the screens: widgets, panels, charts, motion. Their words live on
their own floor, ``gonzaga/words``."""
