//! A hostile model (or a prompt-injected page, or a colleague's message steering one)
//! tries to get round the boss: each test is one such attempt that must get nowhere.

mod sandbox;
