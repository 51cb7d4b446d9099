# A full bot workflow with MediaWiki::API (Debian's libmediawiki-api-perl), through its own
# helpers (login, edit with automatic tokens, get_page, list with continuation, upload, download).
use strict;
use warnings;
use utf8;
use File::Basename qw(dirname);
use lib dirname(__FILE__);
use MediaWiki::API;
use _Workflow;

sub client {
  my $mw = MediaWiki::API->new({ api_url => "$WIKI{url}/w/api.php", retries => 0 });
  $mw->{ua}->agent('quire-conformance (MediaWiki::API)');
  return $mw;
}
my ($bot, $human, $anonymous) = (client(), client(), client());
my $page = "Conformance MediaWiki-API $RUN";
my $moved = "Conformance MediaWiki-API moved $RUN";
my $conflict_page = "$page/conflict";
my $file = "Conformance MediaWiki-API $RUN.png";

# The library's failures are undef with the reason in {error}: make them step failures.
sub ok {
  my ($mw, $result, $what) = @_;
  check(defined $result, "$what failed: " . ($mw->{error}->{details} // 'no details'));
  return $result;
}
sub userinfo { my ($mw) = @_; ok($mw, $mw->api({ action => 'query', meta => 'userinfo' }), 'userinfo')->{query}->{userinfo} }
sub text_of { my ($title) = @_; ok($bot, $bot->get_page({ title => $title }), "get_page $title")->{'*'} }

exit run_steps('MediaWiki::API',
  'login with a bot password' => sub {
    my $r = ok($bot, $bot->login({ lgname => $WIKI{bot_user}, lgpassword => $WIKI{bot_password} }), 'login');
    equal(userinfo($bot)->{name}, $WIKI{user}, 'userinfo name after login');
    return "logged in as $r->{lgusername}";
  },
  'clientlogin with the main password' => sub {
    my $token = ok($human, $human->api({ action => 'query', meta => 'tokens', type => 'login' }), 'login token')->{query}->{tokens}->{logintoken};
    my $r = ok($human, $human->api({ action => 'clientlogin', username => $WIKI{user}, password => $WIKI{password}, logintoken => $token, loginreturnurl => $WIKI{url} }), 'clientlogin')->{clientlogin};
    equal($r->{status}, 'PASS', 'clientlogin status');
    equal(userinfo($human)->{name}, $WIKI{user}, 'userinfo name after clientlogin');
    return "status PASS as $r->{username}";
  },
  'siteinfo and version' => sub {
    my $q = ok($bot, $bot->api({ action => 'query', meta => 'siteinfo', siprop => 'general|namespaces' }), 'siteinfo')->{query};
    check($q->{general}->{generator} =~ /^MediaWiki 1\.39\./, "generator $q->{general}->{generator}");
    equal($q->{namespaces}->{6}->{canonical}, 'File', 'canonical name of namespace 6');
    return $q->{general}->{generator};
  },
  'edit and read back' => sub {
    my $r = ok($bot, $bot->edit({ action => 'edit', title => $page, text => "Created by MediaWiki::API, run $RUN", summary => 'conformance: create', createonly => 1 }), 'edit')->{edit};
    equal($r->{result}, 'Success', 'edit result');
    equal(text_of($page), "Created by MediaWiki::API, run $RUN", 'content read back');
    my $current = ok($bot, $bot->get_page({ title => $page }), 'get_page');
    my $r2 = ok($bot, $bot->edit({ action => 'edit', title => $page, basetimestamp => $current->{timestamp}, text => "$current->{'*'}\n\nappended line", summary => 'conformance: edit' }), 'second edit')->{edit};
    check($r2->{newrevid} > $r->{newrevid}, 'the second edit made no new revision');
    equal(text_of($page), "Created by MediaWiki::API, run $RUN\n\nappended line", 'edited content read back');
    return "revisions $r->{newrevid} → $r2->{newrevid}";
  },
  'edit conflict' => sub {
    ok($bot, $bot->edit({ action => 'edit', title => $conflict_page, text => "alpha\nbeta\ngamma", summary => 'conformance: base' }), 'base edit');
    my $base = ok($bot, $bot->get_page({ title => $conflict_page }), 'get_page');
    sleep 1.1; # edit times have a resolution of one second
    ok($anonymous, $anonymous->edit({ action => 'edit', title => $conflict_page, text => "alpha\nbeta changed by someone else\ngamma", summary => 'conformance: interfering edit' }), 'interfering edit');
    my $r = $bot->edit({ action => 'edit', title => $conflict_page, basetimestamp => $base->{timestamp}, text => "alpha\nbeta changed by the bot\ngamma", summary => 'conformance: conflicting edit' });
    check(!defined $r, 'the conflicting edit was saved');
    equal($bot->{error}->{details}, 'editconflict: Edit conflict.', 'error of the conflicting edit');
    equal(text_of($conflict_page), "alpha\nbeta changed by someone else\ngamma", 'content after the refused edit');
    return $bot->{error}->{details};
  },
  'upload' => sub {
    my $png = unique_png();
    my $r = ok($bot, $bot->edit({ action => 'upload', filename => $file, comment => 'conformance: upload', text => "Uploaded by MediaWiki::API $RUN", file => [undef, $file, Content => $png] }), 'upload')->{upload};
    equal($r->{result}, 'Success', 'upload result');
    my $downloaded = ok($bot, $bot->download({ title => "File:$file" }), 'download');
    equal(length $downloaded, length $png, 'downloaded size');
    check($downloaded eq $png, 'downloaded bytes differ from the upload');
    return length($png) . ' bytes, downloaded back';
  },
  'move' => sub {
    my $r = ok($bot, $bot->edit({ action => 'move', from => $page, to => $moved, reason => 'conformance: move' }), 'move')->{move};
    equal($r->{to}, $moved, 'move result "to"');
    equal(text_of($moved), "Created by MediaWiki::API, run $RUN\n\nappended line", 'content under the new name');
    my $q = ok($bot, $bot->api({ action => 'query', titles => $page, redirects => 1 }), 'redirect query')->{query};
    equal($q->{redirects}->[0]->{to}, $moved, 'the old title redirects to');
    return "$page → $moved";
  },
  'delete as sysop' => sub {
    my $r = ok($bot, $bot->edit({ action => 'delete', title => $moved, reason => 'conformance: delete' }), 'delete')->{delete};
    equal($r->{title}, $moved, 'deleted title');
    my $gone = ok($bot, $bot->get_page({ title => $moved }), 'get_page');
    check(exists $gone->{missing}, 'the deleted page is still there');
    return "log $r->{logid}";
  },
  'search' => sub {
    my $word = "searchword$RUN";
    ok($bot, $bot->edit({ action => 'edit', title => $conflict_page, text => "alpha\nbeta\ngamma $word", summary => 'conformance: searchable' }), 'edit');
    my $hits = eventually(sub {
      my $found = ok($bot, $bot->list({ action => 'query', list => 'search', srsearch => $word, srwhat => 'text' }), 'search');
      return (grep { $_->{title} eq $conflict_page } @$found) ? $found : undef;
    }, "text search for $word did not find $conflict_page");
    return scalar(@$hits) . ' hit(s)';
  },
  'list continued past 500 items' => sub {
    # list() follows query-continue (it asks for rawcontinue), the pre-1.26 continuation.
    my $list = sub { [map { $_->{title} } @{ ok($bot, $bot->list({ action => 'query', list => 'allpages', apprefix => $BULK_PREFIX, aplimit => 500 }), 'allpages') }] };
    my $titles = $list->();
    if (@$titles < $BULK_COUNT) {
      my %have = map { ($_ => 1) } @$titles;
      in_parallel(4, sub {
        my ($t) = @_;
        ok($bot, $bot->edit({ action => 'edit', title => $t, text => "Page $t for the list continuation step.", summary => 'conformance: bulk' }), "edit $t");
      }, grep { !$have{$_} } map { bulk_title($_) } 0 .. $BULK_COUNT - 1);
      $titles = $list->();
    }
    my %distinct = map { ($_ => 1) } @$titles;
    equal(scalar(keys %distinct), scalar(@$titles), 'distinct titles (a repeated title means a broken continuation)');
    check(@$titles >= $BULK_COUNT, 'listed ' . scalar(@$titles) . " pages, want at least $BULK_COUNT");
    return scalar(@$titles) . ' distinct pages';
  },
  'logout' => sub {
    # The library's logout() only forgets the cookies; the session ends on the wiki with
    # action=logout (edit() adds the CSRF token it needs since MediaWiki 1.34).
    ok($bot, $bot->edit({ action => 'logout' }), 'action=logout');
    my $me = userinfo($bot);
    check(exists $me->{anon} && $me->{id} == 0, "still logged in after logout ($me->{name})");
    $bot->logout();
    return 'anonymous afterwards';
  },
);
