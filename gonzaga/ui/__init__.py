"""Interface pieces shared by the screens: strings (i18n), widgets and panels."""
