# A full bot workflow with MediaWiki::Bot (Debian's libmediawiki-bot-perl), through its own methods
# wherever it has one. It has no delete or clientlogin, its edit() always bases on the latest
# revision, and its logout() is a GET without a token (refused by MediaWiki since 1.34): those go
# through the MediaWiki::API object it wraps ($bot->{api}), as its users do.
use strict;
use warnings;
use utf8;
use File::Basename qw(dirname);
use lib dirname(__FILE__);
use MediaWiki::Bot;
use _Workflow;

my ($protocol, $host) = $WIKI{url} =~ m{^(https?)://([^/]+)} or die "WIKI_URL $WIKI{url} is not http(s)://host\n";
sub client { MediaWiki::Bot->new({ agent => 'quire-conformance (MediaWiki::Bot)', protocol => $protocol, host => $host, path => 'w' }) }
my ($bot, $human, $anonymous) = (client(), client(), client());
my $page = "Conformance MediaWiki-Bot $RUN";
my $moved = "Conformance MediaWiki-Bot moved $RUN";
my $conflict_page = "$page/conflict";
my $file = "Conformance MediaWiki-Bot $RUN.png";

# The library's failures are undef with the reason in {error}: make them step failures.
sub ok {
  my ($client, $result, $what) = @_;
  check(defined $result, "$what failed: " . ($client->{error}->{details} // 'no details'));
  return $result;
}
sub api { my ($client, $query, $what) = @_; ok($client->{api}, $client->{api}->api($query), $what) }
sub userinfo { my ($client) = @_; api($client, { action => 'query', meta => 'userinfo' }, 'userinfo')->{query}->{userinfo} }
sub text_of { my ($title) = @_; ok($bot, $bot->get_text($title), "get_text $title") }

# Plain HTTP to a local wiki is what the runner does; the library's warning about it is noise.
local $SIG{__WARN__} = sub { warn @_ unless $_[0] =~ /plain HTTP/ };

exit run_steps('MediaWiki::Bot',
  'login with a bot password' => sub {
    check($bot->login({ username => $WIKI{bot_user}, password => $WIKI{bot_password} }), 'login failed: ' . ($bot->{error}->{details} // 'no details'));
    equal(userinfo($bot)->{name}, $WIKI{user}, 'userinfo name after login');
    return "logged in as $bot->{username}";
  },
  'clientlogin with the main password' => sub {
    my $token = api($human, { action => 'query', meta => 'tokens', type => 'login' }, 'login token')->{query}->{tokens}->{logintoken};
    my $r = api($human, { action => 'clientlogin', username => $WIKI{user}, password => $WIKI{password}, logintoken => $token, loginreturnurl => $WIKI{url} }, 'clientlogin')->{clientlogin};
    equal($r->{status}, 'PASS', 'clientlogin status');
    equal(userinfo($human)->{name}, $WIKI{user}, 'userinfo name after clientlogin');
    return "status PASS as $r->{username}";
  },
  'siteinfo and version' => sub {
    my $version = ok($bot, $bot->get_mw_version(), 'get_mw_version');
    equal("$version->{major}.$version->{minor}", '1.39', 'MediaWiki version');
    my %names = $bot->get_namespace_names();
    equal($names{6}, 'File', 'name of namespace 6');
    return "MediaWiki $version->{string}";
  },
  'edit and read back' => sub {
    my $r = ok($bot, $bot->edit({ page => $page, text => "Created by MediaWiki::Bot, run $RUN", summary => 'conformance: create' }), 'edit')->{edit};
    equal($r->{result}, 'Success', 'edit result');
    # edit() sends CRLF line ends and an md5 of them; the wiki stores LF.
    equal(text_of($page), "Created by MediaWiki::Bot, run $RUN", 'content read back');
    my $r2 = ok($bot, $bot->edit({ page => $page, text => text_of($page) . "\n\nappended line", summary => 'conformance: edit', minor => 0 }), 'second edit')->{edit};
    check($r2->{newrevid} > $r->{newrevid}, 'the second edit made no new revision');
    equal(text_of($page), "Created by MediaWiki::Bot, run $RUN\n\nappended line", 'edited content read back');
    return "revisions $r->{newrevid} → $r2->{newrevid}";
  },
  'edit conflict' => sub {
    ok($bot, $bot->edit({ page => $conflict_page, text => "alpha\nbeta\ngamma", summary => 'conformance: base' }), 'base edit');
    my ($base) = $bot->get_history($conflict_page, { rvlimit => 1 });
    check($base && $base->{timestamp_date}, 'get_history gave no revision');
    sleep 1.1; # edit times have a resolution of one second
    ok($anonymous, $anonymous->edit({ page => $conflict_page, text => "alpha\nbeta changed by someone else\ngamma", summary => 'conformance: interfering edit' }), 'interfering edit');
    my $basetimestamp = "$base->{timestamp_date}T$base->{timestamp_time}Z";
    my $r = $bot->{api}->edit({ action => 'edit', title => $conflict_page, basetimestamp => $basetimestamp, text => "alpha\nbeta changed by the bot\ngamma", summary => 'conformance: conflicting edit' });
    check(!defined $r, 'the conflicting edit was saved');
    equal($bot->{api}->{error}->{details}, 'editconflict: Edit conflict.', 'error of the conflicting edit');
    equal(text_of($conflict_page), "alpha\nbeta changed by someone else\ngamma", 'content after the refused edit');
    return $bot->{api}->{error}->{details};
  },
  'upload' => sub {
    my $png = unique_png();
    my $r = ok($bot, $bot->upload({ data => $png, title => $file, summary => 'conformance: upload' }), 'upload')->{upload};
    equal($r->{result}, 'Success', 'upload result');
    check($bot->test_image_exists("File:$file") == 1, 'test_image_exists does not find the file locally');
    my $info = api($bot, { action => 'query', titles => "File:$file", prop => 'imageinfo', iiprop => 'size|sha1' }, 'imageinfo');
    my ($image) = values %{ $info->{query}->{pages} };
    equal($image->{imageinfo}->[0]->{size}, length $png, 'uploaded size');
    return length($png) . ' bytes';
  },
  'move' => sub {
    my $r = ok($bot, $bot->move($page, $moved, 'conformance: move'), 'move')->{move};
    equal($r->{to}, $moved, 'move result "to"');
    equal(text_of($moved), "Created by MediaWiki::Bot, run $RUN\n\nappended line", 'content under the new name');
    my $q = api($bot, { action => 'query', titles => $page, redirects => 1 }, 'redirect query')->{query};
    equal($q->{redirects}->[0]->{to}, $moved, 'the old title redirects to');
    return "$page → $moved";
  },
  'delete as sysop' => sub {
    my $r = ok($bot->{api}, $bot->{api}->edit({ action => 'delete', title => $moved, reason => 'conformance: delete' }), 'delete')->{delete};
    equal($r->{title}, $moved, 'deleted title');
    check(!defined $bot->get_text($moved), 'the deleted page still has text');
    return "log $r->{logid}";
  },
  'search' => sub {
    my $word = "searchword$RUN";
    ok($bot, $bot->edit({ page => $conflict_page, text => "alpha\nbeta\ngamma $word", summary => 'conformance: searchable' }), 'edit');
    my @hits = @{ eventually(sub { my @found = $bot->search($word); (grep { $_ eq $conflict_page } @found) ? \@found : undef },
      "search for $word did not find $conflict_page") };
    return scalar(@hits) . ' hit(s)';
  },
  'list continued past 500 items' => sub {
    # All pages of the main namespace, 500 at a time (query-continue: the library asks for rawcontinue).
    my @titles = $bot->get_pages_in_namespace(0, 500, { max => 0 });
    my %have = map { ($_ => 1) } @titles;
    my @missing = grep { !$have{$_} } map { bulk_title($_) } 0 .. $BULK_COUNT - 1;
    if (@missing) {
      in_parallel(4, sub { ok($bot, $bot->edit({ page => $_[0], text => "Page $_[0] for the list continuation step.", summary => 'conformance: bulk' }), "edit $_[0]") }, @missing);
      @titles = $bot->get_pages_in_namespace(0, 500, { max => 0 });
      %have = map { ($_ => 1) } @titles;
    }
    equal(scalar(keys %have), scalar(@titles), 'distinct titles (a repeated title means a broken continuation)');
    check(!(grep { !$have{$_} } map { bulk_title($_) } 0 .. $BULK_COUNT - 1), 'pages missing from the listing');
    check(@titles > 500, 'listed only ' . scalar(@titles) . ' pages');
    return scalar(@titles) . ' distinct pages';
  },
  'logout' => sub {
    # The wrapped MediaWiki::API object is configured to send logout as a GET, which MediaWiki
    # refuses since 1.34 (the token must be POSTed): POST it.
    local $bot->{api}->{config}->{get_actions} = { %{ $bot->{api}->{config}->{get_actions} }, logout => 0 };
    ok($bot->{api}, $bot->{api}->edit({ action => 'logout' }), 'action=logout');
    my $me = userinfo($bot);
    check(exists $me->{anon} && $me->{id} == 0, "still logged in after logout ($me->{name})");
    $bot->logout();
    return 'anonymous afterwards';
  },
);
