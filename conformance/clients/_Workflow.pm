# What the Perl client workflows share: the wiki from the environment, the step table the runner
# reads (`PASS <step>` / `FAIL <step> — <why>`), and test data. The runner skips files named `_*`.
package _Workflow;
use strict;
use warnings;
use utf8;
use Compress::Zlib qw(compress crc32);
use Exporter 'import';
use POSIX ();
use Time::HiRes qw(time sleep);

our @EXPORT = qw(%WIKI $RUN $BULK_PREFIX $BULK_COUNT bulk_title check equal eventually in_parallel unique_png run_steps);

our %WIKI = map { (lc($_) => $ENV{"WIKI_$_"} // die "missing WIKI_$_ in the environment\n") } qw(URL USER PASSWORD BOT_USER BOT_PASSWORD);
$WIKI{url} =~ s{/+$}{};
our $RUN = sprintf('%x%06x', int(time * 1000), int(rand(0xffffff)));
our $BULK_PREFIX = 'Conformance bulk/';
our $BULK_COUNT = 520;

sub bulk_title { sprintf('%s%04d', $BULK_PREFIX, $_[0]) }

sub check { my ($ok, $message) = @_; die { step_failure => $message } unless $ok; }

sub _show { defined $_[0] ? "'$_[0]'" : 'undef' }

sub equal {
  my ($actual, $expected, $what) = @_;
  check(defined $actual && $actual eq $expected, "$what: expected " . _show($expected) . ', got ' . _show($actual));
}

# Waits for a condition the wiki reaches asynchronously (the search index).
sub eventually {
  my ($fn, $what, $timeout) = @_;
  $timeout //= 20;
  my $deadline = time + $timeout;
  while (1) {
    my $result = $fn->();
    return $result if $result;
    check(0, "$what (waited $timeout s)") if time > $deadline;
    sleep 0.5;
  }
}

# Runs $fn over @items in $width forked processes (each with a copy of the caller's session);
# dies with the first failure any of them reported.
sub in_parallel {
  my ($width, $fn, @items) = @_;
  my %children;
  for my $slot (0 .. $width - 1) {
    my @share = @items[grep { $_ % $width == $slot } 0 .. $#items];
    next unless @share;
    pipe(my $reader, my $writer) or die "pipe: $!";
    my $pid = fork // die "fork: $!";
    if (!$pid) {
      close $reader;
      my $ok = eval { $fn->($_) for @share; 1 };
      my $e = $@;
      print {$writer} (ref $e eq 'HASH' ? $e->{step_failure} : "$e") unless $ok;
      close $writer;
      POSIX::_exit($ok ? 0 : 1);
    }
    close $writer;
    $children{$pid} = $reader;
  }
  my @errors;
  for my $pid (keys %children) {
    my $reader = $children{$pid};
    my $message = do { local $/; <$reader> } // '';
    waitpid($pid, 0);
    push @errors, $message || "worker exited $?" if $?;
  }
  check(!@errors, join('; ', @errors));
}

# A valid 1x1 PNG no earlier run uploaded: a random colour and a text chunk with the run id.
sub unique_png {
  my $chunk = sub { my ($type, $data) = @_; pack('N', length $data) . $type . $data . pack('N', crc32($type . $data)) };
  my $pixel = pack('C4', 0, map { int rand 256 } 1 .. 3);
  return "\x89PNG\r\n\x1a\n" . $chunk->('IHDR', pack('NNC5', 1, 1, 8, 2, 0, 0, 0))
    . $chunk->('tEXt', "Comment\0quire conformance $RUN") . $chunk->('IDAT', compress($pixel)) . $chunk->('IEND', '');
}

# Runs the steps in order; a failing step does not stop the others. Returns the exit code.
sub run_steps {
  my ($client, @steps) = @_;
  binmode STDOUT, ':encoding(UTF-8)';
  $| = 1;
  print "$client against $WIKI{url} (run $RUN)\n";
  my ($failed, $total) = (0, @steps / 2);
  while (my ($name, $fn) = splice @steps, 0, 2) {
    my $started = time;
    my $detail = eval { $fn->() };
    if (my $e = $@) {
      $failed++;
      my $why = ref $e eq 'HASH' && $e->{step_failure} ? $e->{step_failure} : "$e";
      $why =~ s/\s+/ /g;
      print "FAIL $name — $why\n";
    } else {
      print "PASS $name\n";
      printf "       %s%d ms\n", ($detail ? "$detail, " : ''), (time - $started) * 1000;
    }
  }
  printf "%s: %d/%d steps passed\n", $client, $total - $failed, $total;
  return $failed ? 1 : 0;
}

1;
