# Installs shop, its completions for bash, zsh and fish, and its manual page:
#   make install                      # into /usr/local
#   make install PREFIX=~/.local      # into your home; missing folders are created
#   make uninstall PREFIX=~/.local
# SHOP_BIN installs a binary already built instead of building the release one.

PREFIX ?= /usr/local
# `PREFIX=~/.local` reaches make unexpanded from shells that only expand `~` at a word's start.
override PREFIX := $(patsubst ~/%,$(HOME)/%,$(patsubst ~,$(HOME),$(PREFIX)))
SHOP_BIN ?= .build/release/shop

BINDIR = $(DESTDIR)$(PREFIX)/bin
MANDIR = $(DESTDIR)$(PREFIX)/share/man/man1
BASHDIR = $(DESTDIR)$(PREFIX)/share/bash-completion/completions
ZSHDIR = $(DESTDIR)$(PREFIX)/share/zsh/site-functions
FISHDIR = $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d

INSTALLED = "$(BINDIR)/shop" "$(MANDIR)/shop.1" "$(BASHDIR)/shop" "$(ZSHDIR)/_shop" \
	"$(FISHDIR)/shop.fish"

.PHONY: all install uninstall FORCE

all: $(SHOP_BIN)

# swift build knows what changed; make only asks it every time.
.build/release/shop: FORCE
	swift build -c release --product shop

install: $(SHOP_BIN)
	mkdir -p "$(BINDIR)" "$(MANDIR)" "$(BASHDIR)" "$(ZSHDIR)" "$(FISHDIR)"
	"$(SHOP_BIN)" manual > "$(MANDIR)/shop.1"
	"$(SHOP_BIN)" completions bash > "$(BASHDIR)/shop"
	"$(SHOP_BIN)" completions zsh > "$(ZSHDIR)/_shop"
	"$(SHOP_BIN)" completions fish > "$(FISHDIR)/shop.fish"
	cp "$(SHOP_BIN)" "$(BINDIR)/shop.new"
	chmod 755 "$(BINDIR)/shop.new"
	mv -f "$(BINDIR)/shop.new" "$(BINDIR)/shop"

uninstall:
	rm -f $(INSTALLED)
