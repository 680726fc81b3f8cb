"""Front-end rendering shared by the CLI and the chat (terminal lines or JSON)."""
