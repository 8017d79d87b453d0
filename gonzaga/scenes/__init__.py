"""The screens: each a scene on the app's stack (``base.SceneStack``), opened by its registered
name (``catalog.scene_registry``) so that screens never import one another to open them. The game
screen is the package ``game/``. Scenes draw only from a session's view for a seat."""
