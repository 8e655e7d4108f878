# Installs shop, its completions for bash, zsh and fish, and its manual page:
#   make install                      # into /usr/local
#   make install PREFIX=~/.local      # into your home; missing folders are created
#   make uninstall PREFIX=~/.local    # and the folders install made, if left empty
# SHOP_BIN installs a binary already built instead of building the release one; STRIP names
# the strip program (the binary is installed unstripped where there is none).

PREFIX ?= /usr/local
# `PREFIX=~/.local` reaches make unexpanded from shells that only expand `~` at a word's start.
override PREFIX := $(patsubst ~/%,$(HOME)/%,$(patsubst ~,$(HOME),$(PREFIX)))
SHOP_BIN ?= .build/release/shop
STRIP ?= strip

BINDIR = $(DESTDIR)$(PREFIX)/bin
MANDIR = $(DESTDIR)$(PREFIX)/share/man/man1
BASHDIR = $(DESTDIR)$(PREFIX)/share/bash-completion/completions
ZSHDIR = $(DESTDIR)$(PREFIX)/share/zsh/site-functions
FISHDIR = $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d
DOCDIR = $(DESTDIR)$(PREFIX)/share/doc/shop
FOLDERS = "$(BINDIR)" "$(MANDIR)" "$(BASHDIR)" "$(ZSHDIR)" "$(FISHDIR)" "$(DOCDIR)"
# The folders install made, one a line, so that uninstall removes those and no others. Not
# kept for a staged install (DESTDIR): a package's folders are its package manager's business.
MADE = $(DOCDIR)/made-folders

INSTALLED = "$(BINDIR)/shop" "$(MANDIR)/shop.1" "$(BASHDIR)/shop" "$(ZSHDIR)/_shop" \
	"$(FISHDIR)/shop.fish" "$(DOCDIR)/LICENSE"

.PHONY: all install uninstall FORCE

all: $(SHOP_BIN)

# swift build knows what changed; make only asks it every time.
.build/release/shop: FORCE
	swift build -c release --product shop

install: $(SHOP_BIN)
	@set --; for dir in $(FOLDERS); do \
	  while [ ! -e "$$dir" ]; do set -- "$$@" "$$dir"; dir=$$(dirname "$$dir"); done; \
	done; \
	echo 'mkdir -p $(FOLDERS)'; mkdir -p $(FOLDERS) && \
	  if [ $$# -gt 0 ] && [ -z "$(DESTDIR)" ]; then printf '%s\n' "$$@" >> "$(MADE)"; fi
	"$(SHOP_BIN)" manual > "$(MANDIR)/shop.1"
	"$(SHOP_BIN)" completions bash > "$(BASHDIR)/shop"
	"$(SHOP_BIN)" completions zsh > "$(ZSHDIR)/_shop"
	"$(SHOP_BIN)" completions fish > "$(FISHDIR)/shop.fish"
	cp LICENSE "$(DOCDIR)/LICENSE"
	cp "$(SHOP_BIN)" "$(BINDIR)/shop.new"
	chmod 755 "$(BINDIR)/shop.new"
	@# The symbols are most of the binary's size; strip only drops them, so a missing or failing
	@# strip leaves a binary that works.
	@if command -v "$(STRIP)" >/dev/null 2>&1; then \
	  echo '$(STRIP) "$(BINDIR)/shop.new"'; \
	  "$(STRIP)" "$(BINDIR)/shop.new" || echo "warning: $(STRIP) failed: shop is not stripped" >&2; \
	else echo "note: no $(STRIP): shop is installed with its symbols" >&2; fi
	mv -f "$(BINDIR)/shop.new" "$(BINDIR)/shop"

# Deepest folder first (a folder's path is longer than its parent's); rmdir leaves any folder
# that holds something else.
uninstall:
	rm -f $(INSTALLED)
	@if [ -f "$(MADE)" ]; then \
	  made=$$(cat "$(MADE)"); rm -f "$(MADE)"; \
	  printf '%s\n' "$$made" | awk '{ print length($$0) "\t" $$0 }' | sort -rn | cut -f2- | \
	    while IFS= read -r dir; do \
	      if [ -n "$$dir" ] && rmdir "$$dir" 2>/dev/null; then echo "rmdir $$dir"; fi; \
	    done; \
	fi
